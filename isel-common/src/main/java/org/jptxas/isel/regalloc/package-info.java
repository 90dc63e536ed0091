/**
 * Register allocation on Ori: virtual R/UR/P/UP registers become physical ones, in place.
 *
 * <p>Entry point: {@link org.jptxas.isel.regalloc.RegisterAllocator#allocate(org.jptxas.ori.ir.OriFunction,
 * RegisterLimits, boolean)} with {@link org.jptxas.isel.regalloc.RegisterLimits} (ptxas's register-count semantics:
 * {@code --maxrregcount}/{@code .maxnreg} raised to 24, highest allocatable register = limit - 3, R1 reserved as the
 * stack pointer), returning an {@link org.jptxas.isel.regalloc.Allocation} (REGCOUNT as ptxas reports it: highest
 * general register + 1 + 2; spill bytes for the frame; whether R1 is read).
 *
 * <p>Pipeline: precoloured physical registers become fixed virtual ones; {@link org.jptxas.isel.regalloc.Coalescer}
 * merges copies (whole, and tuples copied part by part) whose intervals meet only at the copy; then rounds of
 * {@link org.jptxas.isel.regalloc.IntervalBuilder} (live intervals with holes from block liveness, cut to where a
 * definition may reach, part-by-part tuple writes kill) and {@link org.jptxas.isel.regalloc.LinearScan} (lowest aligned
 * register free for the whole interval, copy hints first, fragmented slots first; pairs even, quads 4-aligned) until
 * nothing needs spilling; {@link org.jptxas.isel.regalloc.SpillRewriter} spills everywhere (STL/LDL at
 * {@code [R1+offset]} after the function's own local bytes, predicates through a general register with
 * {@code SEL}/{@code ISETP}, constant moves rematerialized instead). Spill candidates are the cheapest by occurrences
 * weighted 10x per loop level divided by interval length. {@link org.jptxas.isel.regalloc.AllocationVerifier} checks an
 * assignment independently (every read finds its value, by forward data flow per tuple component; alignment; limits).
 *
 * <p>Deterministic (no hash-order iteration); no global state.
 */
package org.jptxas.isel.regalloc;
