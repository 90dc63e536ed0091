/** The scheduler's side of code generation: the latency-model {@link org.jptxas.isel.codegen.ControlPass}. */
package org.jptxas.scheduler.codegen;
