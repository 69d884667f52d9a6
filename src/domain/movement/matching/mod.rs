//! Maximum-weight matching on a general graph (Edmonds' blossom algorithm).
//!
//! A port of Joris van Rantwijk's well-known `mwmatching` (primal-dual, O(n³) worst case,
//! adjacency lists so sparse graphs stay cheap). Weights are integers; duals are doubled so
//! all arithmetic stays integral.

const NONE: usize = usize::MAX;

/// An undirected weighted edge (i, j, weight).
pub type Edge = (usize, usize, i64);

/// Maximum-weight matching of `edges` on vertices `0..n`; with `max_cardinality`, the
/// heaviest among the matchings of greatest size. Returns the mate of each vertex.
pub fn max_weight_matching(n: usize, edges: &[Edge], max_cardinality: bool) -> Vec<Option<usize>> {
    if edges.is_empty() || n == 0 {
        return vec![None; n];
    }
    let mut m = Matcher::new(n, edges, max_cardinality);
    m.solve();
    (0..n).map(|v| (m.mate[v] != NONE).then(|| m.endpoint[m.mate[v]])).collect()
}

struct Matcher<'a> {
    n: usize,
    edges: &'a [Edge],
    max_card: bool,
    endpoint: Vec<usize>,
    neighbend: Vec<Vec<usize>>,
    mate: Vec<usize>,
    label: Vec<u8>,
    labelend: Vec<usize>,
    inblossom: Vec<usize>,
    parent: Vec<usize>,
    childs: Vec<Vec<usize>>,
    base: Vec<usize>,
    endps: Vec<Vec<usize>>,
    bestedge: Vec<usize>,
    bestedges: Vec<Option<Vec<usize>>>,
    unused: Vec<usize>,
    dual: Vec<i64>,
    allow: Vec<bool>,
    queue: Vec<usize>,
}

fn at(v: &[usize], j: isize) -> usize {
    v[j.rem_euclid(v.len() as isize) as usize]
}

impl<'a> Matcher<'a> {
    fn new(n: usize, edges: &'a [Edge], max_card: bool) -> Self {
        let maxw = edges.iter().map(|e| e.2).max().unwrap_or(0).max(0);
        let mut neighbend = vec![Vec::new(); n];
        let mut endpoint = Vec::with_capacity(2 * edges.len());
        for (k, &(i, j, _)) in edges.iter().enumerate() {
            endpoint.push(i);
            endpoint.push(j);
            neighbend[i].push(2 * k + 1);
            neighbend[j].push(2 * k);
        }
        let mut base: Vec<usize> = (0..n).collect();
        base.extend(std::iter::repeat_n(NONE, n));
        let mut dual = vec![maxw; n];
        dual.extend(std::iter::repeat_n(0, n));
        Matcher {
            n,
            edges,
            max_card,
            endpoint,
            neighbend,
            mate: vec![NONE; n],
            label: vec![0; 2 * n],
            labelend: vec![NONE; 2 * n],
            inblossom: (0..n).collect(),
            parent: vec![NONE; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            base,
            endps: vec![Vec::new(); 2 * n],
            bestedge: vec![NONE; 2 * n],
            bestedges: vec![None; 2 * n],
            unused: (n..2 * n).collect(),
            dual,
            allow: vec![false; edges.len()],
            queue: Vec::new(),
        }
    }

    fn slack(&self, k: usize) -> i64 {
        let (i, j, w) = self.edges[k];
        self.dual[i] + self.dual[j] - 2 * w
    }

    fn leaves(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                stack.extend(self.childs[x].iter().rev());
            }
        }
        out
    }

    fn assign_label(&mut self, w: usize, t: u8, p: usize) {
        let mut w = w;
        let mut t = t;
        let mut p = p;
        loop {
            let b = self.inblossom[w];
            self.label[w] = t;
            self.label[b] = t;
            self.labelend[w] = p;
            self.labelend[b] = p;
            self.bestedge[w] = NONE;
            self.bestedge[b] = NONE;
            if t == 1 {
                let l = self.leaves(b);
                self.queue.extend(l);
                return;
            }
            let mb = self.mate[self.base[b]];
            w = self.endpoint[mb];
            t = 1;
            p = mb ^ 1;
        }
    }

    fn scan_blossom(&mut self, v: usize, w: usize) -> usize {
        let (mut v, mut w) = (v, w);
        let mut path = Vec::new();
        let mut base = NONE;
        while v != NONE || w != NONE {
            let mut b = self.inblossom[v];
            if self.label[b] & 4 != 0 {
                base = self.base[b];
                break;
            }
            path.push(b);
            self.label[b] = 5;
            if self.labelend[b] == NONE {
                v = NONE;
            } else {
                v = self.endpoint[self.labelend[b]];
                b = self.inblossom[v];
                v = self.endpoint[self.labelend[b]];
            }
            if w != NONE {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = 1;
        }
        base
    }
}

mod ops;
mod solve;

#[cfg(test)]
mod tests;
