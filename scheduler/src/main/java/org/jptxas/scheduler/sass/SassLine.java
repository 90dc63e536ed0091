package org.jptxas.scheduler.sass;

/**
 * One disassembled sm_70+ instruction: its text as nvdisasm prints it and its two little-endian qwords.
 *
 * @param branchTarget whether a label precedes it (some branch may jump here)
 */
public record SassLine(String function, int address, String text, long lo, long hi, boolean branchTarget) {}
