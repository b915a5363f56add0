// Glicko-2 (Mark Glickman, "Example of the Glicko-2 system", 2013): the
// puzzle player's rating, deviation and volatility, updated after each
// puzzle as one rating period with one game against the puzzle (its
// rating and deviation; a solve is a win, 1, anything else a loss, 0).
// Checked against the paper's worked example by tests/browser_puzzle.rs.
"use strict";

/** The scale between Glicko ratings and Glicko-2's (the paper's 173.7178). */
const GLICKO_SCALE = 173.7178;
/** The system constant τ: how much the volatility may change in a period
 * (Glickman: 0.3 to 1.2; 0.5 is his example's). */
const GLICKO_TAU = 0.5;
/** The largest deviation: a new player's, and the most a long pause can
 * bring back. */
const GLICKO_MAX_RD = 350;

/** The player after one rating period: `player` is `{ rating, rd, vol }`,
 * `games` a list of `{ rating, rd, score }` (score 1, ½ or 0), `tau` the
 * system constant. With no games only the deviation grows (step 6). */
function glicko2(player, games, tau = GLICKO_TAU) {
  // Step 2: the Glicko-2 scale.
  const mu = (player.rating - 1500) / GLICKO_SCALE;
  const phi = player.rd / GLICKO_SCALE;
  const sigma = player.vol;
  if (!games.length) {
    const rd = Math.min(GLICKO_MAX_RD, Math.sqrt(phi * phi + sigma * sigma) * GLICKO_SCALE);
    return { rating: player.rating, rd, vol: sigma };
  }
  const g = (p) => 1 / Math.sqrt(1 + (3 * p * p) / (Math.PI * Math.PI));
  const played = games.map((o) => {
    const muJ = (o.rating - 1500) / GLICKO_SCALE;
    const gJ = g(o.rd / GLICKO_SCALE);
    return { gJ, e: 1 / (1 + Math.exp(-gJ * (mu - muJ))), s: o.score };
  });
  // Step 3: the estimated variance v; step 4: the improvement Δ.
  const v = 1 / played.reduce((sum, o) => sum + o.gJ * o.gJ * o.e * (1 - o.e), 0);
  const sumScore = played.reduce((sum, o) => sum + o.gJ * (o.s - o.e), 0);
  const delta = v * sumScore;
  // Step 5: the new volatility, by the Illinois algorithm on f.
  const a = Math.log(sigma * sigma);
  const f = (x) => {
    const ex = Math.exp(x);
    const d = phi * phi + v + ex;
    return (ex * (delta * delta - phi * phi - v - ex)) / (2 * d * d) - (x - a) / (tau * tau);
  };
  let A = a;
  let B;
  if (delta * delta > phi * phi + v) {
    B = Math.log(delta * delta - phi * phi - v);
  } else {
    let k = 1;
    while (f(a - k * tau) < 0) k++;
    B = a - k * tau;
  }
  let fA = f(A);
  let fB = f(B);
  for (let i = 0; Math.abs(B - A) > 0.000001 && i < 100; i++) {
    const C = A + ((A - B) * fA) / (fB - fA);
    const fC = f(C);
    if (fC * fB <= 0) {
      A = B;
      fA = fB;
    } else {
      fA /= 2;
    }
    B = C;
    fB = fC;
  }
  const vol = Math.exp(A / 2);
  // Steps 6 and 7: the new deviation and rating; step 8: back to Glicko.
  const phiStar = Math.sqrt(phi * phi + vol * vol);
  const phiNew = 1 / Math.sqrt(1 / (phiStar * phiStar) + 1 / v);
  const muNew = mu + phiNew * phiNew * sumScore;
  return {
    rating: muNew * GLICKO_SCALE + 1500,
    rd: Math.min(GLICKO_MAX_RD, phiNew * GLICKO_SCALE),
    vol,
  };
}
