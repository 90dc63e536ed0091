/**
 * ptxas's list scheduler: a red-black-tree ready list ordered by the 8-bit packed priority and its multi-stage
 * comparison, the spill-mode state machine, and three modes (ReduceReg, ILP, DynBatch) of one engine.
 */
package org.jptxas.scheduler.list;
