//! Taking a lock, as a job (docs/locking.md § The lock as a job): the acquisition of the
//! sidecar lock with its fair queue (a waiter's claim to the next turn, taken over by a longer
//! waiter, handed the lock by its releaser) and the breaking of a dead owner's lock through a
//! marker, written once for both hosts. Each host's driver performs the steps it asks for.

use super::expect::{created, holding, missing, missing_or_young};
use super::facts::{
    create_step, holds_text, read_step, stat_step, Boxed, Ctx, Mine, Owner, Setup, Step, Stop,
};
use super::{pause, turn, QUEUE_AFTER_MS, TURN_MS};
use crate::error::Result;
use crate::job::{step, Job};
use crate::Value;

/// A waiter's claim to the next turn (`<lock>.next`).
#[derive(Default)]
struct Claim {
    /// Our claim record: one per acquisition (the lock may be handed to it).
    mine: Option<Mine>,
    /// Whether `<lock>.next` holds it, as far as we know.
    placed: bool,
    /// When it was placed (monotonic ms).
    at: f64,
    /// Its file's mtime (epoch ms): its age is judged from it, as others do.
    dated: i64,
    /// Its file's inode (a claim of ours replaced by a longer waiter's has another).
    ino: Option<String>,
    /// When we started waiting (epoch ms): the claim's date.
    since: i64,
}

/// What an attempt found: the lock is ours, or its holder (if it could be read).
enum Tried {
    Taken(Mine),
    Held(Option<Owner>),
}

/// A job taking the lock file `lock` (absolute), waiting up to `timeout_ms` (0: one attempt).
/// `identity`: this process's `{pid, start, boot, host}`; `probe`: processes can be probed
/// here (`kill(pid, 0)`); `watching`: the host can watch its claim between attempts (a
/// synchronous host); `seed`: random bytes for the records' tokens and the pauses' jitter.
/// Ends with `{"do": "done", "record", "text", "release"}` (the lock is ours; `release` is the
/// release job's first step, for a host to take without a job), `E_LOCK_TIMEOUT`,
/// `E_LOCK_FOREIGN`, or `{"do": "raise", "failed"}` (a system call's error, which the host
/// raises).
#[allow(clippy::too_many_arguments)]
pub fn acquire_job(
    lock: String,
    identity: Value,
    probe: bool,
    watching: bool,
    timeout_ms: f64,
    seed: Vec<u8>,
    now_ms: i64,
    mono_ms: f64,
) -> Result<Job> {
    let setup = Setup::new(lock, identity, probe, seed)?;
    Ok(setup.job(now_ms, mono_ms, move |ctx| async move {
        let done = acquire(&ctx, watching, timeout_ms).await;
        ctx.finish(done)
    }))
}

/// The acquisition: attempts until the lock is ours or the time is up, then our claim
/// removed (and a lock handed to it as we gave up released).
pub(super) async fn acquire(
    ctx: &Ctx,
    watching: bool,
    timeout_ms: f64,
) -> std::result::Result<Mine, Stop> {
    let mut claim = Claim {
        since: ctx.io().now_ms(),
        ..Claim::default()
    };
    let result = attempts(ctx, &mut claim, watching, timeout_ms).await;
    if let Some(mine) = claim.mine.clone() {
        unclaim(ctx, &mut claim).await;
        // Handed the lock as we gave up (an error): release it, never keep it unknowingly.
        if result.is_err() && ctx.holds(&mine).await {
            let _ = release(ctx, &mine).await;
        }
    }
    result
}

async fn attempts(
    ctx: &Ctx,
    claim: &mut Claim,
    watching: bool,
    timeout_ms: f64,
) -> std::result::Result<Mine, Stop> {
    let io = ctx.io();
    let start = io.mono_ms();
    let deadline = start + timeout_ms;
    let mut attempt: u32 = 0;
    plan_attempt(ctx, claim, None).await?;
    loop {
        if let Some(mine) = claim.mine.clone() {
            if ctx.holds(&mine).await {
                return Ok(mine); // handed to us by its releaser
            }
        }
        let waiting = attempt > 0 && !claim.placed;
        let token = claim.mine.as_ref().map(|m| m.token.clone());
        let since = claim.since;
        let turn = read_turn(ctx, token.as_deref(), waiting, since, Some(claim)).await;
        let deferred = turn.as_ref().is_some_and(|t| t.wait);
        let mut holder = None;
        if let Some(turn) = turn.as_ref().filter(|t| t.wait) {
            // Another's claim is there, not ours; if we have waited longer than its claimant,
            // the claim becomes ours.
            claim.placed = false;
            if let Some(dated) = turn.displace_ms {
                displace(ctx, claim, dated).await?;
            }
        } else {
            match try_acquire(ctx).await? {
                Tried::Taken(mine) => return Ok(mine),
                Tried::Held(owner) => holder = owner,
            }
        }
        let left = deadline - io.mono_ms();
        if left <= 0.0 {
            if let Some(mine) = claim.mine.clone() {
                unclaim(ctx, claim).await;
                if ctx.holds(&mine).await {
                    return Ok(mine);
                }
            }
            let holder = match holder {
                Some(owner) => Some(owner),
                None => ctx.read_owner(ctx.lock()).await.ok().flatten(),
            };
            return Err(Stop::Core(ctx.timeout(holder.as_ref(), timeout_ms)));
        }
        if !deferred {
            claim_turn(ctx, claim, io.mono_ms() - start).await?;
        }
        let age = claim
            .placed
            .then(|| io.now_ms().saturating_sub(claim.dated));
        let plan = pause(attempt, age, watching, ctx.jitter());
        let us = plan.get("us").and_then(Value::as_f64).unwrap_or(0.0);
        let ms = (us / 1000.0).min(left).max(0.0);
        let watch = plan.get("watch").and_then(Value::as_str).unwrap_or("none");
        let asked = if watch == "none" {
            step("pause", [("ms", ms.into())])
        } else {
            let step_us = plan.get("step_us").and_then(Value::as_f64).unwrap_or(0.0);
            step(
                "watch",
                [
                    ("lock", ctx.lock().into()),
                    ("ms", ms.into()),
                    ("step_ms", (step_us / 1000.0).into()),
                    ("lock_too", (watch == "claim_and_lock").into()),
                    ("ino", claim.ino.clone().map_or(Value::Null, Value::from)),
                ],
            )
        };
        plan_attempt(ctx, claim, Some(asked.clone())).await?;
        // A pause's failure is the host's stop (a cancelled caller): given up, cleaned up.
        ctx.ask(asked).await?;
        attempt = attempt.saturating_add(1).min(16);
    }
}

/// Plans the next attempt (after `pause`, the pause or watch asked before it): for an
/// acquirer without a claim, the claim file and the lock found missing, the lock created and
/// the job done; for a claimant, the lock found handed to its claim (its claim file gone) and
/// the job done. Any other answer ends the plan where the attempt goes its own way.
#[inline(never)]
fn plan_attempt<'a>(ctx: &'a Ctx, claim: &'a Claim, pause: Option<Value>) -> Boxed<'a, ()> {
    Box::pin(async move {
        let mut steps: Vec<(Value, Option<Value>)> = pause.into_iter().map(|p| (p, None)).collect();
        let mine = match claim.mine.clone() {
            Some(mine) => {
                steps.push((read_step(ctx.lock()), holding(&mine.text)));
                steps.push((read_step(ctx.next_path()), missing()));
                mine
            }
            None => {
                let mine = ctx.prepare()?;
                // A first attempt passes a young claim, as a releaser does; a waiter reads it.
                let claim_file = if steps.is_empty() {
                    missing_or_young()
                } else {
                    missing()
                };
                steps.push((stat_step(ctx.next_path()), claim_file));
                steps.push((read_step(ctx.lock()), missing()));
                steps.push((create_step(ctx.lock(), &mine), created()));
                mine
            }
        };
        ctx.plan(steps, Some(ctx.done_step(mine))).await
    })
}

/// One acquisition attempt: the lock is ours, or its holder to wait for. A held lock is judged
/// without making a record, a temp file and a link (a waiter's attempt then changes nothing in
/// the directory, whose fsync the holder is waiting for). A file at the lock path that is not
/// a statecore lock is `E_LOCK_FOREIGN`, untouched.
#[inline(never)]
fn try_acquire<'a>(ctx: &'a Ctx) -> Boxed<'a, Tried> {
    Box::pin(async move {
        let mut owner = None;
        for _ in 0..8 {
            owner = ctx.read_owner(ctx.lock()).await?;
            let Some(found) = owner.as_ref() else {
                let mine = ctx.new_record()?;
                if ctx.create(ctx.lock(), &mine).await? {
                    return Ok(Tried::Taken(mine));
                }
                continue; // taken meanwhile: read again
            };
            if found.foreign {
                return Err(Stop::Core(ctx.foreign(found)));
            }
            if !ctx.dead(found, true).await? || !ctx.break_file(ctx.lock(), found, 0).await? {
                return Ok(Tried::Held(owner));
            }
        }
        Ok(Tried::Held(owner))
    })
}

/// What the claim file says (the core's [`turn`]), or `None` when there is none or it cannot
/// be read: the claim file never makes an acquisition fail. A claim too young to be honoured
/// is judged from its mtime alone ([`super::glance`]), except by a `waiting` acquirer, which
/// reads it without checking its claimant's liveness. A dead claimant's claim is broken.
/// `claim`: ours, if we are a waiter (one replaced by another file, or gone, is no longer
/// placed).
#[inline(never)]
fn read_turn<'a>(
    ctx: &'a Ctx,
    token: Option<&'a str>,
    mut waiting: bool,
    since: i64,
    claim: Option<&'a mut Claim>,
) -> Step<'a, Option<Turn>> {
    Box::pin(async move {
        let next = ctx.next_path().to_owned();
        let seen = match ctx.stat(&next).await {
            Ok(Some(seen)) => seen,
            Ok(None) => {
                // Our claim is gone and the lock was not handed to us (checked before): placed
                // again after this attempt, not watched for.
                if let Some(claim) = claim {
                    claim.placed = false;
                }
                return None;
            }
            Err(_) => return None,
        };
        if let Some(claim) = claim {
            if claim.placed && claim.ino.as_deref() != Some(seen.ino.as_str()) {
                claim.placed = false; // taken over: we wait like the others (and may take it back)
                waiting = true;
            }
        }
        let glance = super::glance(ctx.io().now_ms(), seen.mtime_ms, waiting);
        if glance == "pass" {
            return None;
        }
        let claimed = ctx.read_owner(&next).await.ok()??;
        let facts = ctx.facts(&claimed, glance == "judge").await.ok()?;
        let turned = turn(
            &claimed.reading(),
            &facts,
            token,
            waiting,
            waiting.then_some(since),
        )
        .ok()?;
        let turn = Turn::of(&turned);
        if turn.dead {
            let _ = ctx.break_file(&next, &claimed, 0).await;
        }
        Some(turn)
    })
}

/// The core's verdict on a claim, as read here.
struct Turn {
    wait: bool,
    hand_over: bool,
    dead: bool,
    displace_ms: Option<i64>,
}

impl Turn {
    fn of(value: &Value) -> Turn {
        let flag = |key: &str| value.get(key).and_then(Value::as_bool).unwrap_or(false);
        Turn {
            wait: flag("wait"),
            hand_over: flag("hand_over"),
            dead: flag("dead"),
            displace_ms: value.get("displace_ms").and_then(Value::as_i64),
        }
    }
}

/// Claims or refreshes this waiter's turn: a waiter that has waited [`QUEUE_AFTER_MS`] puts
/// its claim record in `<lock>.next`, renewed at half its life. A claim that cannot be made
/// is no error (this waiter then polls like the others).
#[inline(never)]
fn claim_turn<'a>(ctx: &'a Ctx, claim: &'a mut Claim, waited: f64) -> Boxed<'a, ()> {
    Box::pin(async move {
        let io = ctx.io();
        let next = ctx.next_path().to_owned();
        if claim.placed && io.mono_ms() - claim.at > (TURN_MS / 2) as f64 {
            if let Some(mine) = claim.mine.as_ref() {
                let _ = ctx.release_file(&next, mine).await;
            }
            claim.placed = false;
        }
        if !claim.placed && waited >= QUEUE_AFTER_MS as f64 {
            let mine = match claim.mine.clone() {
                Some(mine) => mine,
                None => ctx.record_dated(claim.since)?,
            };
            claim.mine = Some(mine.clone());
            claim.placed = ctx.create(&next, &mine).await.unwrap_or(false);
            claim.at = io.mono_ms();
            claim.dated = io.now_ms();
            if claim.placed {
                placed(ctx, claim).await;
            }
        }
        Ok(())
    })
}

/// Notes our claim file's inode and its age as the others judge it, from its mtime.
#[inline(never)]
fn placed<'a>(ctx: &'a Ctx, claim: &'a mut Claim) -> Step<'a, ()> {
    Box::pin(async move {
        if let Ok(Some(seen)) = ctx.stat(ctx.next_path()).await {
            claim.ino = Some(seen.ino);
            claim.dated = seen.mtime_ms;
        }
    })
}

/// Takes the claim over from a waiter that started after us: our claim record goes to a temp
/// file dated `dated_ms` (as ripe as the claim it replaces), renamed over `<lock>.next`.
#[inline(never)]
fn displace<'a>(ctx: &'a Ctx, claim: &'a mut Claim, dated_ms: i64) -> Boxed<'a, ()> {
    Box::pin(async move {
        let mine = match claim.mine.clone() {
            Some(mine) => mine,
            None => ctx.record_dated(claim.since)?,
        };
        claim.mine = Some(mine.clone());
        let next = ctx.next_path().to_owned();
        let tmp = format!("{next}.{}.tmp", mine.token);
        let asked = step(
            "displace",
            [
                ("path", next.as_str().into()),
                ("tmp", tmp.into()),
                ("text", mine.text.as_str().into()),
                ("dated_ms", dated_ms.into()),
            ],
        );
        if ctx.ask(asked).await.is_err() {
            claim.placed = false;
            return Ok(());
        }
        let io = ctx.io();
        claim.placed = true;
        claim.dated = dated_ms;
        claim.at = io.mono_ms() - (io.now_ms().saturating_sub(dated_ms).max(0)) as f64;
        placed(ctx, claim).await;
        Ok(())
    })
}

/// Removes our claim if `<lock>.next` still holds it; never fails.
#[inline(never)]
fn unclaim<'a>(ctx: &'a Ctx, claim: &'a mut Claim) -> Step<'a, ()> {
    Box::pin(async move {
        if let Some(mine) = claim.mine.as_ref() {
            let _ = ctx.release_file(ctx.next_path(), mine).await;
        }
        claim.placed = false;
    })
}

/// Releases our lock: to the claimant of the next turn when the core says so (its claim
/// renamed over the lock: the lock is never free in between), else by removing it. True when
/// our lock was released.
#[inline(never)]
pub(super) fn release<'a>(ctx: &'a Ctx, mine: &'a Mine) -> Boxed<'a, bool> {
    Box::pin(async move {
        let (steps, released) = ctx.release_plan(mine);
        let removed = steps.get(1..).unwrap_or_default().to_vec();
        ctx.plan(steps, released.clone()).await?;
        let turn = read_turn(ctx, Some(&mine.token), false, 0, None).await;
        let hand_over = turn.is_some_and(|turn| turn.hand_over);
        let steps = if hand_over {
            let rename = step(
                "rename",
                [("from", ctx.next_path().into()), ("to", ctx.lock().into())],
            );
            vec![(read_step(ctx.lock()), holding(&mine.text)), (rename, None)]
        } else {
            removed
        };
        ctx.plan(steps, released).await?;
        let answer = ctx.ask(read_step(ctx.lock())).await?;
        if !holds_text(&answer, mine) {
            return Ok(false);
        }
        if hand_over {
            let asked = step(
                "rename",
                [("from", ctx.next_path().into()), ("to", ctx.lock().into())],
            );
            // The claim went meanwhile (or cannot be moved): released as usual.
            if ctx.ask(asked).await.is_ok() {
                return Ok(true);
            }
        }
        ctx.unlink(ctx.lock()).await?;
        Ok(true)
    })
}

/// A job releasing the lock file `lock` if it still holds exactly `text` (our record's bytes):
/// to the claimant of the next turn when the core's [`turn`] says so, else by removing it.
/// Ends with `{"do": "done", "released"}` or `{"do": "raise", "failed"}`.
pub fn release_job(
    lock: String,
    text: String,
    identity: Value,
    probe: bool,
    seed: Vec<u8>,
    now_ms: i64,
    mono_ms: f64,
) -> Result<Job> {
    let setup = Setup::new(lock, identity, probe, seed)?;
    Ok(setup.job(now_ms, mono_ms, move |ctx| async move {
        let released = match Mine::from_text(&text) {
            Some(mine) => release(&ctx, &mine).await,
            None => Ok(false),
        };
        match released {
            Ok(released) => Ok(step("done", [("released", released.into())])),
            Err(stop) => ctx.stopped(stop),
        }
    }))
}
