package org.jptxas.scheduler.hazard;

/**
 * One problem found by the {@link HazardChecker}.
 *
 * @param index    the instruction that would misbehave
 * @param producer the earlier instruction involved, or -1
 * @param kind     what is wrong
 * @param detail   a short explanation (register, cycles)
 * @param shortBy  for a {@link HazardKind#RAW_STALL}, the cycles the read comes too early; else 0
 * @param pendingSb for a {@link HazardKind#RAW_SCOREBOARD}, the scoreboards (bit mask) still covering the register
 *                 when it is read: where paths merge, another producer's scoreboard than the named one may hold it
 */
public record Hazard(int index, int producer, HazardKind kind, String detail, int shortBy, int pendingSb) {
    public Hazard(int index, int producer, HazardKind kind, String detail) {
        this(index, producer, kind, detail, 0, 0);
    }

    public Hazard(int index, int producer, HazardKind kind, String detail, int shortBy) {
        this(index, producer, kind, detail, shortBy, 0);
    }

    /** Shared scoreboards are legal (the counter covers both producers); every other kind is a real hazard. */
    public boolean isError() {
        return kind != HazardKind.SCOREBOARD_SHARED;
    }

    @Override
    public String toString() {
        return "[" + index + "] " + kind + (producer >= 0 ? " (after [" + producer + "])" : "") + ": " + detail;
    }
}
