//! Blossom creation, expansion, augmentation and the main primal-dual loop.

use super::{Matcher, NONE, at};

impl Matcher<'_> {
    pub(super) fn add_blossom(&mut self, base: usize, k: usize) {
        let (mut v, mut w, _) = self.edges[k];
        let bb = self.inblossom[base];
        let mut bv = self.inblossom[v];
        let mut bw = self.inblossom[w];
        let Some(b) = self.unused.pop() else { return };
        self.base[b] = base;
        self.parent[b] = NONE;
        self.parent[bb] = b;
        let mut path = Vec::new();
        let mut endps = Vec::new();
        while bv != bb {
            self.parent[bv] = b;
            path.push(bv);
            endps.push(self.labelend[bv]);
            v = self.endpoint[self.labelend[bv]];
            bv = self.inblossom[v];
        }
        path.push(bb);
        path.reverse();
        endps.reverse();
        endps.push(2 * k);
        while bw != bb {
            self.parent[bw] = b;
            path.push(bw);
            endps.push(self.labelend[bw] ^ 1);
            w = self.endpoint[self.labelend[bw]];
            bw = self.inblossom[w];
        }
        self.label[b] = 1;
        self.labelend[b] = self.labelend[bb];
        self.dual[b] = 0;
        self.childs[b] = path.clone();
        self.endps[b] = endps;
        for leaf in self.leaves(b) {
            if self.label[self.inblossom[leaf]] == 2 {
                self.queue.push(leaf);
            }
            self.inblossom[leaf] = b;
        }
        self.best_edges_of_new_blossom(b, &path);
    }

    fn best_edges_of_new_blossom(&mut self, b: usize, path: &[usize]) {
        let mut bestedgeto: Vec<(usize, usize)> = Vec::new(); // (blossom, edge)
        let mut slot = std::collections::HashMap::new();
        for &bv in path {
            let lists: Vec<Vec<usize>> = match self.bestedges[bv].take() {
                Some(l) => vec![l],
                None => {
                    self.leaves(bv).into_iter().map(|v| self.neighbend[v].iter().map(|p| p / 2).collect()).collect()
                }
            };
            for k in lists.into_iter().flatten() {
                let (mut i, mut j, _) = self.edges[k];
                if self.inblossom[j] == b {
                    std::mem::swap(&mut i, &mut j);
                }
                let _ = i;
                let bj = self.inblossom[j];
                if bj != b && self.label[bj] == 1 {
                    match slot.get(&bj) {
                        None => {
                            slot.insert(bj, bestedgeto.len());
                            bestedgeto.push((bj, k));
                        }
                        Some(&s) => {
                            if self.slack(k) < self.slack(bestedgeto[s].1) {
                                bestedgeto[s].1 = k;
                            }
                        }
                    }
                }
            }
            self.bestedge[bv] = NONE;
        }
        let list: Vec<usize> = bestedgeto.into_iter().map(|(_, k)| k).collect();
        self.bestedge[b] = NONE;
        for &k in &list {
            if self.bestedge[b] == NONE || self.slack(k) < self.slack(self.bestedge[b]) {
                self.bestedge[b] = k;
            }
        }
        self.bestedges[b] = Some(list);
    }

    pub(super) fn expand_blossom(&mut self, b: usize, endstage: bool) {
        for s in self.childs[b].clone() {
            self.parent[s] = NONE;
            if s < self.n {
                self.inblossom[s] = s;
            } else if endstage && self.dual[s] == 0 {
                self.expand_blossom(s, endstage);
            } else {
                for v in self.leaves(s) {
                    self.inblossom[v] = s;
                }
            }
        }
        if !endstage && self.label[b] == 2 {
            self.relabel_expanded(b);
        }
        self.label[b] = 0;
        self.labelend[b] = NONE;
        self.childs[b] = Vec::new();
        self.endps[b] = Vec::new();
        self.base[b] = NONE;
        self.bestedges[b] = None;
        self.bestedge[b] = NONE;
        self.unused.push(b);
    }

    fn relabel_expanded(&mut self, b: usize) {
        let childs = self.childs[b].clone();
        let endps = self.endps[b].clone();
        let len = childs.len() as isize;
        let entrychild = self.inblossom[self.endpoint[self.labelend[b] ^ 1]];
        let mut j = childs.iter().position(|&c| c == entrychild).unwrap_or(0) as isize;
        let (jstep, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        let mut p = self.labelend[b];
        while j != 0 {
            self.label[self.endpoint[p ^ 1]] = 0;
            let e = at(&endps, j - trick as isize);
            self.label[self.endpoint[e ^ trick ^ 1]] = 0;
            self.assign_label(self.endpoint[p ^ 1], 2, p);
            self.allow[e / 2] = true;
            j += jstep;
            p = at(&endps, j - trick as isize) ^ trick;
            self.allow[p / 2] = true;
            j += jstep;
        }
        let bv = at(&childs, j);
        let ep = self.endpoint[p ^ 1];
        self.label[ep] = 2;
        self.label[bv] = 2;
        self.labelend[ep] = p;
        self.labelend[bv] = p;
        self.bestedge[bv] = NONE;
        j += jstep;
        while at(&childs, j) != entrychild {
            let bv = at(&childs, j);
            if self.label[bv] == 1 {
                j += jstep;
                continue;
            }
            if let Some(v) = self.leaves(bv).into_iter().find(|&v| self.label[v] != 0) {
                self.label[v] = 0;
                let mb = self.mate[self.base[bv]];
                self.label[self.endpoint[mb]] = 0;
                self.assign_label(v, 2, self.labelend[v]);
            }
            j += jstep;
        }
    }

    pub(super) fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != b {
            t = self.parent[t];
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let len = self.childs[b].len() as isize;
        let i = self.childs[b].iter().position(|&c| c == t).unwrap_or(0);
        let mut j = i as isize;
        let (jstep, trick): (isize, usize) = if j & 1 == 1 {
            j -= len;
            (1, 0)
        } else {
            (-1, 1)
        };
        while j != 0 {
            j += jstep;
            let t1 = at(&self.childs[b], j);
            let p = at(&self.endps[b], j - trick as isize) ^ trick;
            if t1 >= self.n {
                self.augment_blossom(t1, self.endpoint[p]);
            }
            j += jstep;
            let t2 = at(&self.childs[b], j);
            if t2 >= self.n {
                self.augment_blossom(t2, self.endpoint[p ^ 1]);
            }
            self.mate[self.endpoint[p]] = p ^ 1;
            self.mate[self.endpoint[p ^ 1]] = p;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
    }

    pub(super) fn augment_matching(&mut self, k: usize) {
        let (v, w, _) = self.edges[k];
        for (s0, p0) in [(v, 2 * k + 1), (w, 2 * k)] {
            let (mut s, mut p) = (s0, p0);
            loop {
                let bs = self.inblossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = p;
                if self.labelend[bs] == NONE {
                    break;
                }
                let t = self.endpoint[self.labelend[bs]];
                let bt = self.inblossom[t];
                s = self.endpoint[self.labelend[bt]];
                let j = self.endpoint[self.labelend[bt] ^ 1];
                if bt >= self.n {
                    self.augment_blossom(bt, j);
                }
                self.mate[j] = self.labelend[bt];
                p = self.labelend[bt] ^ 1;
            }
        }
    }
}
