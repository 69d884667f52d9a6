//! The main loop: stages of tree growing, dual updates and augmentation.

use super::{Matcher, NONE};

enum Delta {
    Done,
    Edge(usize),
    Blossom(usize),
}

impl Matcher<'_> {
    pub(super) fn solve(&mut self) {
        for _ in 0..self.n {
            self.start_stage();
            if !self.run_stage() {
                break;
            }
            for b in self.n..2 * self.n {
                if self.parent[b] == NONE && self.base[b] != NONE && self.label[b] == 1 && self.dual[b] == 0 {
                    self.expand_blossom(b, true);
                }
            }
        }
    }

    fn start_stage(&mut self) {
        self.label.fill(0);
        self.bestedge.fill(NONE);
        for b in self.n..2 * self.n {
            self.bestedges[b] = None;
        }
        self.allow.fill(false);
        self.queue.clear();
        for v in 0..self.n {
            if self.mate[v] == NONE && self.label[self.inblossom[v]] == 0 {
                self.assign_label(v, 1, NONE);
            }
        }
    }

    /// Grow trees until an augmentation (true) or no more progress is possible (false).
    fn run_stage(&mut self) -> bool {
        loop {
            if self.scan_queue() {
                return true;
            }
            match self.dual_update() {
                Delta::Done => return false,
                Delta::Edge(k) => {
                    self.allow[k] = true;
                    let (mut i, j, _) = self.edges[k];
                    if self.label[self.inblossom[i]] == 0 {
                        i = j;
                    }
                    self.queue.push(i);
                }
                Delta::Blossom(b) => self.expand_blossom(b, false),
            }
        }
    }

    fn scan_queue(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            for idx in 0..self.neighbend[v].len() {
                let p = self.neighbend[v][idx];
                let k = p / 2;
                let w = self.endpoint[p];
                if self.inblossom[v] == self.inblossom[w] {
                    continue;
                }
                let mut kslack = 0;
                if !self.allow[k] {
                    kslack = self.slack(k);
                    if kslack <= 0 {
                        self.allow[k] = true;
                    }
                }
                let bw = self.inblossom[w];
                if self.allow[k] {
                    if self.label[bw] == 0 {
                        self.assign_label(w, 2, p ^ 1);
                    } else if self.label[bw] == 1 {
                        let base = self.scan_blossom(v, w);
                        if base != NONE {
                            self.add_blossom(base, k);
                        } else {
                            self.augment_matching(k);
                            return true;
                        }
                    } else if self.label[w] == 0 {
                        self.label[w] = 2;
                        self.labelend[w] = p ^ 1;
                    }
                } else if self.label[bw] == 1 {
                    let b = self.inblossom[v];
                    if self.bestedge[b] == NONE || kslack < self.slack(self.bestedge[b]) {
                        self.bestedge[b] = k;
                    }
                } else if self.label[w] == 0 && (self.bestedge[w] == NONE || kslack < self.slack(self.bestedge[w])) {
                    self.bestedge[w] = k;
                }
            }
        }
        false
    }

    /// Find the largest safe dual change, apply it, and say what it unlocked.
    fn dual_update(&mut self) -> Delta {
        let n = self.n;
        let mut best: Option<(i64, Delta)> = None;
        if !self.max_card {
            let d = self.dual[..n].iter().copied().min().unwrap_or(0);
            best = Some((d, Delta::Done));
        }
        let better = |best: &Option<(i64, Delta)>, d: i64| best.as_ref().is_none_or(|(x, _)| d < *x);
        for v in 0..n {
            if self.label[self.inblossom[v]] == 0 && self.bestedge[v] != NONE {
                let d = self.slack(self.bestedge[v]);
                if better(&best, d) {
                    best = Some((d, Delta::Edge(self.bestedge[v])));
                }
            }
        }
        for b in 0..2 * n {
            if self.parent[b] == NONE && self.label[b] == 1 && self.bestedge[b] != NONE {
                let d = self.slack(self.bestedge[b]) / 2;
                if better(&best, d) {
                    best = Some((d, Delta::Edge(self.bestedge[b])));
                }
            }
        }
        for b in n..2 * n {
            if self.base[b] != NONE && self.parent[b] == NONE && self.label[b] == 2 && better(&best, self.dual[b]) {
                best = Some((self.dual[b], Delta::Blossom(b)));
            }
        }
        let (delta, kind) = best.unwrap_or_else(|| {
            let d = self.dual[..n].iter().copied().min().unwrap_or(0).max(0);
            (d, Delta::Done)
        });
        self.apply_delta(delta);
        kind
    }

    fn apply_delta(&mut self, delta: i64) {
        let n = self.n;
        for v in 0..n {
            match self.label[self.inblossom[v]] {
                1 => self.dual[v] -= delta,
                2 => self.dual[v] += delta,
                _ => {}
            }
        }
        for b in n..2 * n {
            if self.base[b] != NONE && self.parent[b] == NONE {
                match self.label[b] {
                    1 => self.dual[b] += delta,
                    2 => self.dual[b] -= delta,
                    _ => {}
                }
            }
        }
    }
}
