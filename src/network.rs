//! A graph declared in data (`[network]`): nodes are rows of one table, edges rows of
//! another, each edge with a cost from an expression. Gives `distance(a, b)` to
//! expressions and connectivity to checks.

use std::collections::{BTreeMap, BinaryHeap};

/// Nodes and weighted, undirected edges.
#[derive(Debug, Default, Clone)]
pub struct Network {
    /// Cost added once to every trip between different nodes (see [`Network::set_trip_cost`]).
    trip: f64,
    ids: Vec<String>,
    index: BTreeMap<String, usize>,
    adj: Vec<Vec<(usize, f64)>>,
}

impl Network {
    /// A network over `ids` with no edges yet.
    pub fn new(ids: impl IntoIterator<Item = String>) -> Network {
        let ids: Vec<String> = ids.into_iter().collect();
        let index = ids
            .iter()
            .enumerate()
            .map(|(i, s)| (s.clone(), i))
            .collect();
        let adj = vec![Vec::new(); ids.len()];
        Network {
            trip: 0.0,
            ids,
            index,
            adj,
        }
    }

    /// Sets the cost added once to every trip that leaves its start (a trip from a
    /// node to itself costs nothing).
    pub fn set_trip_cost(&mut self, cost: f64) {
        self.trip = cost;
    }

    /// Nodes plus edges: the work of one search at worst.
    pub fn size(&self) -> usize {
        self.ids.len() + self.adj.iter().map(Vec::len).sum::<usize>() / 2
    }

    /// Whether `id` is a node.
    pub fn has(&self, id: &str) -> bool {
        self.index.contains_key(id)
    }

    /// Adds an undirected edge; both ends must be nodes.
    pub fn add_edge(&mut self, a: &str, b: &str, cost: f64) -> bool {
        match (self.index.get(a), self.index.get(b)) {
            (Some(&i), Some(&j)) => {
                self.adj[i].push((j, cost));
                self.adj[j].push((i, cost));
                true
            }
            _ => false,
        }
    }

    /// The least total cost from any of `from` to any of `to` (Dijkstra), plus the
    /// trip cost when the trip leaves its start, or `None` when no path exists or a
    /// name is not a node.
    pub fn distance(&self, from: &[&str], to: &[&str]) -> Option<f64> {
        let targets: Vec<usize> = to
            .iter()
            .filter_map(|t| self.index.get(*t).copied())
            .collect();
        if targets.len() != to.len() || targets.is_empty() {
            return None;
        }
        let mut dist = vec![f64::INFINITY; self.ids.len()];
        let mut heap = BinaryHeap::new();
        for f in from {
            let &i = self.index.get(*f)?;
            dist[i] = 0.0;
            heap.push(Item(0.0, i));
        }
        while let Some(Item(d, i)) = heap.pop() {
            if d > dist[i] {
                continue;
            }
            if targets.contains(&i) {
                let stays = from.iter().any(|f| self.index.get(*f) == Some(&i));
                return Some(if stays { d } else { d + self.trip });
            }
            for &(j, c) in &self.adj[i] {
                let nd = d + c;
                if nd < dist[j] {
                    dist[j] = nd;
                    heap.push(Item(nd, j));
                }
            }
        }
        None
    }

    /// Groups of nodes connected to each other; one group means the graph is connected.
    pub fn components(&self) -> Vec<Vec<String>> {
        let mut seen = vec![false; self.ids.len()];
        let mut groups = Vec::new();
        for start in 0..self.ids.len() {
            if seen[start] {
                continue;
            }
            let mut stack = vec![start];
            seen[start] = true;
            let mut group = Vec::new();
            while let Some(i) = stack.pop() {
                group.push(self.ids[i].clone());
                for &(j, _) in &self.adj[i] {
                    if !seen[j] {
                        seen[j] = true;
                        stack.push(j);
                    }
                }
            }
            group.sort();
            groups.push(group);
        }
        groups
    }
}

#[derive(PartialEq)]
struct Item(f64, usize);

impl Eq for Item {}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

#[cfg(test)]
mod tests {
    use super::Network;

    #[test]
    fn shortest_paths() {
        let mut n = Network::new(["a", "b", "c", "d"].map(String::from));
        n.add_edge("a", "b", 2.0);
        n.add_edge("b", "c", 3.0);
        n.add_edge("a", "c", 9.0);
        assert_eq!(n.distance(&["a"], &["c"]), Some(5.0));
        assert_eq!(n.distance(&["a", "c"], &["c"]), Some(0.0));
        assert_eq!(n.distance(&["a"], &["d"]), None);
        assert_eq!(n.components().len(), 2);
        n.set_trip_cost(1.0);
        assert_eq!(n.distance(&["a"], &["c"]), Some(6.0));
        assert_eq!(n.distance(&["a", "c"], &["c"]), Some(0.0));
    }
}
