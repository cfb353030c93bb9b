mod GPOS;
mod GSUB;
