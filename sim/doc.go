// Package sim is a deterministic discrete-event cluster simulator: nodes and
// their power states, a job queue with FCFS, EASY or conservative
// backfilling, energy accounting, and a record of what happened.
//
// # Time and jobs
//
// Time is integer Unix seconds. A job needs Procs slots (cores) and runs
// exactly Run seconds; it may span nodes. When its nodes run at a CPU
// frequency level whose speed is not 1, it runs ceil(Run / speed) seconds at
// the slowest of its nodes' speeds. Jobs with unknown processors or run time,
// fewer than one slot, a negative run time, or more slots than the cluster
// has are input errors from New ("job 17 needs 300 slots, cluster has 128");
// so is a trace not sorted by submit time. Jobs with a zero run time are kept:
// they start and end at the same second.
//
// # Nodes
//
// Every node starts Idle (powered, all slots free) at TIni, the first
// submit time. Its states and transitions:
//
//	Off (or asleep at a sleep level) --PowerOn--> Booting --BootS--> Idle <--> Busy
//	Idle --PowerOff--> ShuttingDown --ShutdownS--> Off
//
// Booting from sleep level k takes that level's ExitS and ExitWh instead of
// BootS and BootWh; powering off into level k takes EnterS and EnterWh. Jobs
// are placed only on free slots of Idle and Busy nodes: a booting node runs
// nothing. A policy's PowerOn of a node that is not Off, PowerOff of a node
// that is not Idle, or frequency change of a Busy node is ignored and counted
// in Result.IgnoredCommands; a node or level out of range is a policy bug and
// fails the run. With Options.BootFailProb > 0 each boot fails with that
// probability (drawn from a PCG seeded by Options.Seed, afresh every Run):
// the node stays Booting for BootTimeout seconds (default twice the boot
// time), then returns to Off with LastFailed set.
//
// # Scheduling and placement
//
// The queue is in submit order (ties in trace order). FCFS starts jobs from
// the head while the head fits in the free slots. EASY then gives the blocked
// head a reservation at its shadow time — the earliest time at which, by the
// estimates, enough slots are free on Idle, Busy and booting nodes: a booting
// node counts with all its slots at its expected boot end, a running job
// frees its slots at start + estimate (an estimate already overrun counts as
// ending now, and its expiry is an event: the scheduler passes again at
// that second, as the shadow time may move earlier) — and starts, in queue order, every later job that fits in the
// free slots now and either ends by its estimate before the shadow time or
// fits in the slots the head will not need then. The estimate is the logged
// requested time, or the run time when the log has none (requested time ≤ 0)
// or Options.UseRunTime is set. When running and booting slots can never add
// up to the head's need (the policy must power nodes on first), Off nodes
// count too, each with all its slots at the time it would be up if booted
// now (a shutting-down node once its shutdown ends and it could boot
// again), as a scheduler with power saving treats powered-down nodes
// (Slurm's ResumeTimeout): the head keeps a reservation, and jobs that
// would hold it up do not backfill.
//
// Conservative backfilling gives every queued job a reservation: at each
// pass it plans the queue afresh, in queue order, each job at the earliest
// time from which its slots stay free for its estimate, by the same
// estimates (overrun ones ending now, their expiry an event) and boots,
// after the reservations of the jobs ahead of it; a job planned now
// starts if its slots are free now. So a job starts early only if it
// delays no reservation of a job ahead of it; a reservation moves earlier
// as jobs end before their estimates. When the running and booting slots
// can never hold a job, Off and shutting-down nodes join the plan as in
// EASY's reservation.
//
// A starting job takes free slots on the lowest-numbered nodes first, as
// many as each node has free. A policy that implements policy.Placer is
// given the nodes with free slots (ascending) to reorder; the job takes
// slots in that order, and in node order for any slots the Placer's order
// left uncovered.
//
// # Order of events at one time
//
// Everything that happens at the same second is processed in this order:
//
//  1. jobs end (in trace order), freeing their slots; running jobs'
//     estimates that run out now expire (backfilling schedulers);
//  2. transitions complete: boots done (node Idle), then boots failed
//     (node Off), then shutdowns done (node Off), each in node order;
//  3. at local midnight, View.HourlySlots takes in the day just ended;
//  4. jobs submitted at this time join the queue (trace order);
//  5. the scheduler starts what it can;
//  6. the policy is consulted if this is a decision time (below);
//  7. its commands are applied (power-ons, power-offs, frequencies, each
//     in the order given);
//  8. the scheduler runs again (a job started here uses Idle nodes left on;
//     a PowerOff cannot hit a node the scheduler just used, as that node is
//     no longer Idle).
//
// A zero-run job started in 5 or 8, or a boot or shutdown that takes no
// time, completes in a further pass at the same time (steps 1–8 again, the
// policy then not consulted twice at one time).
// The run stops at TEnd, right after the last job ends (step 1).
//
// # Decision times and the policy's Wake contract
//
// With Options.Period P > 0 (0 means DefaultPeriod, 60 s) the policy may be
// consulted at the ticks TIni + k·P; the first consultation is at TIni,
// after the first submissions were scheduled. A tick is skipped — Decide is
// not called — when nothing in the View changed since the last consultation
// and the tick is before the Wake that consultation returned (NoTime: no
// wake). The View changes when a job is submitted, starts or ends, a node
// changes state or frequency (including by the policy's own commands), and
// at local midnight (HourlySlots); the passing of time alone (View.Now) is
// not a change. So a policy must return as Wake the earliest time at which,
// with nothing else happening, its decision could differ from the one it
// just returned: an idle timeout expiring, a mean queue wait crossing a
// threshold, the next hour for time-of-day rules. A policy that keeps that
// contract gets exactly the run it would get if consulted at every tick
// (only IgnoredCommands, counting repeated ignored commands, may differ),
// and the cost of a run grows with its events, not with its seconds.
// A policy that implements policy.Quiet is asked Quiet first: when it says
// its decision is empty, Decide is not called, and the tick is not waited
// for when the View is quiet already (a quiet decision stays so while
// only time passes); the run is the same. Always-on is quiet whenever no
// node is off, so its runs consult nothing and keep no list of idle
// nodes (IdleLRU is built the first time a quiet policy is not).
// With Period EveryEvent the policy is consulted, under the same rule, at
// every time at which something happens, and at its Wake.
//
// A run in which jobs wait, nothing is pending (no job running, no
// transition under way, no submission to come) and the policy changes
// nothing for 100000 consecutive decisions fails with an error instead of
// hanging.
//
// # What policies see
//
// The View is updated in place as things happen: a node's entry when it
// changes, the summary counts (slots, and nodes Off, Booting, Idle) on
// every change, Queue (scheduler order) and Running (start order) as jobs
// arrive, start and end. IdleLRU and EarliestIdle are set when the
// policy is consulted from a list of the idle nodes kept lazily (O(1) per
// change, gone entries squeezed out at the consultation). Recent holds the
// last policy.RecentCap arrivals. HourlySlots[h] is an exponentially
// smoothed count of the slots submitted in local hour h on past days: at
// each local midnight (TZOffset from the trace) it becomes 1/7 of the day
// just ended plus 6/7 of its previous value (the first day is taken as it
// is). Recent and HourlySlots come from a policy.Features, the feature
// state a daemon keeps too, fed with every submission and the midnights;
// node entries change state by policy.NodeView.Enter, the rule Features
// applies (Since, IdleSince, LastFailed). A daemon feeding a Features
// the same events sees the same View (TestSameViews). Policies must not
// keep the View's slices after Decide returns.
// A policy that implements policy.Clairvoyant is first told, through
// SetFuture, every job's submit, start and end under always-on (replayed
// once per Simulator and cached) and slots.
//
// # Advance reservations and partitions
//
// A trace's advance reservations (datasets.Meta.Reservations) whose job
// it holds are kept powered whatever the policy decides: from the longest
// boot or wake-up time of any group before a reservation's start until
// its job starts (at the latest until its window ends), the policy's
// power-offs that would leave fewer free powered slots than the pending
// reservations' are dropped, and Off nodes are booted in node order until
// there are enough (reserve.go).
//
// A cluster with partitions (Cluster.Partitions) is replayed by a
// Partitioned: each partition apart, on its own nodes under its own
// policy instance, all over the whole trace's window (partition.go).
//
// # Accounting
//
// Everything is accounted over [TIni, TEnd], TIni the first submit and TEnd
// the last end, in integer node-seconds per group and state (and per sleep
// level when Off) and integer busy slot-seconds per group and frequency
// level. Powered node-seconds count Booting, Idle, Busy and ShuttingDown;
// OffNodeSeconds = Nodes·(TEnd−TIni) − powered node-seconds.
// Reconfigurations counts the discontinuities of state(i,t) on the open
// interval (TIni, TEnd) as docs/architecture.md defines them: each boot started after
// TIni (0→1), and each node reaching Off after TIni — shutdown done or boot
// failed — (1→0); a shutdown ordered at TIni that completes later counts.
// Boots and Shutdowns count the commands applied.
//
// Energy is computed once, from those integers: Off at OffW (or the sleep
// level's W), Idle at IdleW, Busy at IdleW + BusyW, plus each busy
// slot-second at BusySlotW (or the frequency level's SlotW), all
// × seconds / 3600; plus BootWh (or ExitWh) per boot and ShutdownWh (or
// EnterWh) per shutdown started in [TIni, TEnd) — the transition energies
// are the whole energy of Booting and ShuttingDown, which draw no power of
// their own. Nothing is accumulated in floating point per event.
//
// # Per job
//
// Result.Jobs holds each job's submit, start and end. With
// Options.JobNodes, Result.Placements also holds where each ran (its
// slots on each node, in the order taken); JobRows joins both with the
// trace's user, group and partition (JobPartition), and WriteJobsFile
// writes them as CSV or Parquet. Instants are Unix seconds in memory, CSV
// and JSON; the Parquet jobs file and timeline hold them as
// TIMESTAMP(MILLIS) adjusted to UTC (unixMillis, the one conversion), which
// ReadJobsParquet and ReadTimelineParquet turn back into seconds.
//
// # Memory
//
// A Simulator keeps of each job 24 bytes (submit, run, estimate, slots)
// plus its ID (nothing while the IDs are 1..n, else 4 or 8 bytes) and an
// index into the distinct (user, group, queue, partition) tuples (2
// bytes, or 4 beyond 65,536 tuples); a run adds its start time, a 4-byte
// allocation handle and, with frequency levels, its end. A Builder makes
// a Simulator from jobs streamed from a file, so that the trace is never
// in memory whole; with Options.LeanJobs Result.Jobs stays nil and
// Result.Job makes the records, and WriteResultJobsFile writes the jobs
// file a batch at a time. "ecotune simulate" replays a 5-million-job
// trace in about 55 bytes a job at peak.
//
// # Performance
//
// Job ends live in a typed binary heap; boots and shutdowns in one FIFO
// ring per duration (pushed as time moves forward, they come due in push
// order); the View, the free-slot bookkeeping (a bitset of nodes with
// free slots, each node's free slots being its view's Slots − BusySlots)
// and EASY's lists of expected ends (running jobs latest first, boots
// soonest first) are updated incrementally. When every node has one slot
// (most traces), a job takes and frees whole Idle nodes on a path without
// slot arithmetic. While the queue is long (256 jobs or more, until it
// falls under 64) EASY indexes the queued jobs in a segment tree of their
// fewest slots and shortest estimates, so a backfill pass visits only
// jobs that may start instead of the whole queue. Buffers are kept in the
// Simulator and reused by every Run, which allocates only its Result and
// the Result's job records.
package sim
