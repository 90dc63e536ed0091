package org.jptxas.scheduler.list;

/**
 * The result of scheduling one block.
 *
 * @param order     the new order: {@code order[k]} is the original index of the k-th instruction
 * @param cycles    estimated issue cycle of the last instruction plus one (the model's schedule length)
 * @param maxLive   the largest number of GPRs live at once along the schedule (block-local values only)
 */
public record Schedule(int[] order, int cycles, int maxLive) {}
