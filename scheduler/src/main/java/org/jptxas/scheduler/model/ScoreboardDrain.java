package org.jptxas.scheduler.model;

/**
 * What a {@code DEPBAR.LE SBk, n{, {i,j}}} waits for before the next instruction issues: the scoreboards it drains
 * completely ({@code drained}: the listed ones, and SBk when {@code n} is 0) and, for a non-zero count, SBk down to
 * its {@code pending} newest producers ({@code partial} = k; -1 when there is none).
 */
public record ScoreboardDrain(int drained, int partial, int pending) {
    public static final ScoreboardDrain NONE = new ScoreboardDrain(0, -1, 0);

    public boolean isNone() {
        return drained == 0 && partial < 0;
    }
}
