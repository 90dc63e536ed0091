package org.jptxas.scheduler.sass;

import org.jptxas.sass.SassInstruction;

/**
 * One disassembled sm_70+ instruction: its text as nvdisasm prints it, its two little-endian qwords and, when
 * jptxas's own decoder read it, the typed instruction.
 *
 * @param label   the label in front of it (a branch may jump here), or {@code null}
 * @param decoded the instruction as the decoder's tables give it, or null (a listing read as text, or bits the
 *                tables do not explain)
 */
public record SassLine(String function, int address, String text, long lo, long hi, String label,
                       SassInstruction.Known decoded) {
    /** A line known by its text and bits (nvdisasm's listing). */
    public SassLine(String function, int address, String text, long lo, long hi, String label) {
        this(function, address, text, lo, hi, label, null);
    }

    public boolean branchTarget() {
        return label != null;
    }
}
