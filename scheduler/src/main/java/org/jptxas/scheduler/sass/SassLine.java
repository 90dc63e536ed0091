package org.jptxas.scheduler.sass;

/**
 * One disassembled sm_70+ instruction: its text as nvdisasm prints it and its two little-endian qwords.
 *
 * @param label the label in front of it (a branch may jump here), or {@code null}
 */
public record SassLine(String function, int address, String text, long lo, long hi, String label) {
    public boolean branchTarget() {
        return label != null;
    }
}
