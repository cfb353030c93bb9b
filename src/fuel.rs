//! Bounds on template work. Every render and expression runs on minijinja fuel:
//! one fuel is one instruction or 64 bytes of the strings and lists it makes, so
//! fuel bounds both the time and the memory of one render. Face templates get
//! [`FUEL`] each (they render on all cores at once); expressions and the check
//! stage's templates (`[[assert]]`, `shape`) get [`CHECK_FUEL`] each (they run one
//! at a time). The fuel used is also charged against two budgets per game
//! ([`GAME_FUEL`] for the expressions and checks, [`FACES_FUEL`] for the faces), so
//! that many small evaluations stop too: a derive over a big table that looks at
//! the whole table on every row is quadratic. The engine's functions (`lookup`,
//! `select`, `fit`...) charge their own work with `State::consume_fuel`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use minijinja::value::Value;
use minijinja::{Environment, Error, ErrorKind, State};

/// Fuel for one face template's render: at most about 32 MB of strings and lists.
/// The heaviest seed face (an Inside Track card) uses 60,000.
pub const FUEL: u64 = 500_000;

/// Fuel for one expression or check-stage template: at most about 128 MB, one at
/// a time. The heaviest seed check (Inside Track's track-layout `[[assert]]`)
/// uses 880,000; Truck Off's seeded-sheet check uses about 1,150 per pad sheet, so
/// it passes up to about 1,700 sheets (`--copies 1725` builds, 1750 runs out).
pub const CHECK_FUEL: u64 = 2_000_000;

/// Fuel for all expressions and check templates of one game together. A seed
/// game's take at most 1.1 million (Truck Off with `--copies 1000`).
pub const GAME_FUEL: u64 = 100_000_000;

/// Fuel for all face renders of one game together. Truck Off's 40 pad sheets take
/// 2.2 million, 10,000 sheets 560 million.
pub const FACES_FUEL: u64 = 2_000_000_000;

/// The name of the function an expression is wrapped in to charge its fuel.
const CHARGE: &str = "__cardstock_charge";

/// Fuel used by one game's renders and expressions.
#[derive(Debug)]
pub struct Budget {
    spent: AtomicU64,
    limit: u64,
}

impl Budget {
    /// A budget of `limit` fuel.
    pub fn new(limit: u64) -> Budget {
        Budget {
            spent: AtomicU64::new(0),
            limit,
        }
    }

    /// Fuel used so far.
    pub fn spent(&self) -> u64 {
        self.spent.load(Ordering::Relaxed)
    }

    /// Charges `fuel`; an error once the game's budget is used up.
    pub fn charge(&self, fuel: u64) -> Result<(), Error> {
        let before = self.spent.fetch_add(fuel, Ordering::Relaxed);
        if before.saturating_add(fuel) > self.limit {
            return Err(Error::new(
                ErrorKind::OutOfFuel,
                format!(
                    "the game's templates and expressions together used up their budget of {} fuel (work that grows with the square of a table?)",
                    self.limit
                ),
            ));
        }
        Ok(())
    }

    /// Charges the fuel a finished render used.
    fn charge_state(&self, state: &State) -> Result<(), Error> {
        self.charge(state.fuel_levels().map_or(0, |(used, _)| used))
    }
}

/// The environment expressions and check templates run in: `env` with
/// [`CHECK_FUEL`] and the function expressions are wrapped in, which charges the
/// fuel the expression used (its argument is evaluated first) to `budget` and
/// gives the value back.
pub fn check_environment(env: &Environment<'static>, budget: Arc<Budget>) -> Environment<'static> {
    let mut check = env.clone();
    check.set_fuel(Some(CHECK_FUEL));
    check.add_function(
        CHARGE,
        move |state: &State, v: Value| -> Result<Value, Error> {
            budget.charge_state(state)?;
            Ok(v)
        },
    );
    check
}

/// Renders template `name` with `ctx`, charging the game's budget.
pub fn render(
    env: &Environment<'_>,
    budget: &Budget,
    name: &str,
    ctx: impl Into<Value>,
) -> Result<String, Error> {
    let captured = env.get_template(name)?.render_captured(ctx)?;
    budget.charge_state(captured.state())?;
    Ok(captured.into_output())
}

/// Renders a template given as text (an `[[assert]]` message, a `shape`), charging
/// the game's budget.
pub fn render_str<'s>(
    env: &Environment<'s>,
    budget: &Budget,
    source: &'s str,
    ctx: impl Into<Value>,
) -> Result<String, Error> {
    render_compiled(budget, &env.template_from_str(source)?, ctx)
}

/// Renders a template compiled from text (by `Environment::template_from_str`),
/// charging the game's budget: [`render_str`] of its text, without compiling it
/// again.
pub fn render_compiled(
    budget: &Budget,
    template: &minijinja::Template,
    ctx: impl Into<Value>,
) -> Result<String, Error> {
    let captured = template.render_captured(ctx)?;
    budget.charge_state(captured.state())?;
    Ok(captured.into_output())
}

/// Evaluates an expression, charging the game's budget. Its syntax is checked on
/// its own first, so the wrapping never changes what parses.
pub fn eval<'s>(
    env: &Environment<'s>,
    source: &'s str,
    ctx: impl Into<Value>,
) -> Result<Value, Error> {
    env.compile_expression(source)?;
    env.compile_expression_owned(format!("{CHARGE}(({source}))"))?
        .eval(ctx)
}
