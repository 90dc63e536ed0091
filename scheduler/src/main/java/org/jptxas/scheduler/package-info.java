/**
 * Instruction scheduling, after ptxas 13's list scheduler (see {@code ../shared/seeds/001_*}).
 *
 * <ul>
 *   <li>{@link org.jptxas.scheduler.model}: the scheduler's view of an instruction ({@code SchedInstr}: register
 *       defs/uses per file, latency class, memory space, control flags) and of control flow;</li>
 *   <li>{@link org.jptxas.scheduler.latency}: the per-SM machine model read from {@code tables/latency/*.json};</li>
 *   <li>{@link org.jptxas.scheduler.dag}: the dependency DAG (linear-time construction, 4095/16383 limits);</li>
 *   <li>{@link org.jptxas.scheduler.list}: the one list-scheduling engine with ReduceReg, ILP and DynBatch modes;</li>
 *   <li>{@link org.jptxas.scheduler.control}: control words (stall, yield, scoreboards, waits, reuse);</li>
 *   <li>{@link org.jptxas.scheduler.hazard}: the static hazard checker;</li>
 *   <li>{@link org.jptxas.scheduler.sass}: decoded SASS (jptxas's decoder or nvdisasm text) as scheduler
 *       instructions, and the control-bit agreement with ptxas.</li>
 * </ul>
 */
package org.jptxas.scheduler;
