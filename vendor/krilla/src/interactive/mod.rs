pub mod action;
pub mod annotation;
pub mod destination;
