/**
 * The scheduler's side of code generation, behind one {@link org.jptxas.isel.codegen.ControlPass}
 * ({@link org.jptxas.scheduler.codegen.LatencyControlPass}): pre-allocation ReduceReg scheduling of the Ori
 * ({@code PreRaScheduler} over {@code OriSchedView}), post-allocation ILP scheduling of the SASS ({@code PostRaScheduler}
 * over {@code SassView}), control words verified by the hazard checker ({@code ControlRepair}) and operand-reuse flags
 * ({@code ReuseFlags}).
 */
package org.jptxas.scheduler.codegen;
