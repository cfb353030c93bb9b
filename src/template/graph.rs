//! Graphs in templates: `distance` over the game's `[network]`, and `connected`
//! and `steps` over a graph a template gives as lists of nodes and edges.

use std::sync::Arc;

use minijinja::value::{Object, Value};
use minijinja::{Error, ErrorKind, State};

use super::numbers::number;
use crate::network::Network;

/// The context variable holding the game's network (see [`network_value`]).
pub const NETWORK: &str = "__cardstock_network";

impl Object for Network {}

/// The game's network as the value `distance()` finds under [`NETWORK`] in the
/// context (`eval::base_context` puts it there once the network is built).
pub fn network_value(network: Arc<Network>) -> Value {
    Value::from_dyn_object(network)
}

/// `distance(from, to)`: the length of the shortest route in the game's
/// `[network]` between a node of `from` and a node of `to` (each a node name or a
/// list of them).
pub(super) fn distance(state: &State, from: Value, to: Value) -> Result<Value, Error> {
    let net = network(state).ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidOperation,
            "distance() needs a [network] in game.toml",
        )
    })?;
    // A shortest-path search visits every node and edge at worst.
    state.consume_fuel(net.size() as u64)?;
    let from = names(&from)?;
    let to = names(&to)?;
    let f: Vec<&str> = from.iter().map(String::as_str).collect();
    let t: Vec<&str> = to.iter().map(String::as_str).collect();
    for n in f.iter().chain(t.iter()) {
        if !net.has(n) {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("distance(): `{n}` is not a node of the network"),
            ));
        }
    }
    match net.distance(&f, &t) {
        Some(d) => Ok(number(d)),
        None => Err(Error::new(
            ErrorKind::InvalidOperation,
            format!(
                "distance(): no route from {} to {}",
                f.join("/"),
                t.join("/")
            ),
        )),
    }
}

/// The game's network, when the context has one.
fn network(state: &State) -> Option<Arc<Network>> {
    state.lookup(NETWORK)?.downcast_object::<Network>()
}

/// A node name or a list of them, as names.
fn names(v: &Value) -> Result<Vec<String>, Error> {
    if let Some(s) = v.as_str() {
        return Ok(vec![s.to_string()]);
    }
    let mut out = Vec::new();
    for item in v.try_iter()? {
        let s = item.as_str().ok_or_else(|| {
            Error::new(
                ErrorKind::InvalidOperation,
                "expected a name or a list of names",
            )
        })?;
        out.push(s.to_string());
    }
    Ok(out)
}

/// A graph given in a template as a list of node ids and a list of `[a, b]` edges,
/// each edge costing 1 (for `connected` and `steps`; `what` names the function in
/// errors). Its size is counted against the template's fuel.
fn graph_of(state: &State, what: &str, nodes: &Value, edges: &Value) -> Result<Network, Error> {
    state.consume_fuel(
        (nodes.len().unwrap_or(0) as u64).saturating_add(edges.len().unwrap_or(0) as u64),
    )?;
    let ids: Vec<String> = nodes.try_iter()?.map(|v| v.to_string()).collect();
    let mut net = Network::new(ids);
    for e in edges.try_iter()? {
        let a = e.get_item_by_index(0)?.to_string();
        let b = e.get_item_by_index(1)?.to_string();
        if !net.add_edge(&a, &b, 1.0) {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("{what}(): edge [{a}, {b}] names a node that is not in the list"),
            ));
        }
    }
    Ok(net)
}

/// `connected(nodes, edges)`: the connected groups of a graph given as a list of
/// node ids and a list of `[a, b]` edges (one group means connected).
pub(super) fn connected(state: &State, nodes: Value, edges: Value) -> Result<Value, Error> {
    let net = graph_of(state, "connected", &nodes, &edges)?;
    Ok(Value::from(
        net.components()
            .into_iter()
            .map(Value::from)
            .collect::<Vec<_>>(),
    ))
}

/// `steps(nodes, edges, from, to)`: the fewest edges on a path from a node of
/// `from` to a node of `to` (each a node id or a list of them) in the graph of
/// `nodes` and `[a, b]` edges, 0 when they share a node; none when no path joins
/// them. A breadth-first search in the engine: the same walk written as a template
/// loop over lists is quadratic.
pub(super) fn steps(
    state: &State,
    nodes: Value,
    edges: Value,
    from: Value,
    to: Value,
) -> Result<Value, Error> {
    let net = graph_of(state, "steps", &nodes, &edges)?;
    let ids = |v: &Value| -> Result<Vec<String>, Error> {
        if v.as_str().is_some() || v.as_i64().is_some() {
            return Ok(vec![v.to_string()]);
        }
        Ok(v.try_iter()?.map(|x| x.to_string()).collect())
    };
    let (from, to) = (ids(&from)?, ids(&to)?);
    for id in from.iter().chain(&to) {
        if !net.has(id) {
            return Err(Error::new(
                ErrorKind::InvalidOperation,
                format!("steps(): `{id}` is not in the list of nodes"),
            ));
        }
    }
    let from: Vec<&str> = from.iter().map(String::as_str).collect();
    let to: Vec<&str> = to.iter().map(String::as_str).collect();
    Ok(match net.distance(&from, &to) {
        Some(d) => Value::from(d as i64),
        None => Value::from(()),
    })
}

#[cfg(test)]
mod tests {
    use super::super::environment::test_env as env;

    #[test]
    fn steps_counts_the_fewest_edges() {
        let e = env();
        let r = |t: &str| e.render_str(t, ()).unwrap();
        let g = "['a', 'b', 'c', 'd', 'e'], [['a', 'b'], ['b', 'c'], ['c', 'd'], ['a', 'd']]";
        assert_eq!(r(&format!("{{{{ steps({g}, 'a', 'c') }}}}")), "2");
        assert_eq!(r(&format!("{{{{ steps({g}, ['b', 'd'], ['c']) }}}}")), "1");
        assert_eq!(r(&format!("{{{{ steps({g}, 'a', 'a') }}}}")), "0");
        assert_eq!(
            r(&format!("{{{{ steps({g}, 'a', 'e') is none }}}}")),
            "True"
        );
        let err = e
            .render_str(&format!("{{{{ steps({g}, 'a', 'z') }}}}"), ())
            .unwrap_err();
        assert!(
            err.to_string().contains("`z` is not in the list of nodes"),
            "{err}"
        );
    }
}
