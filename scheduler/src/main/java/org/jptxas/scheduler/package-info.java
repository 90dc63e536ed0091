/** Instruction scheduling: dependency DAG, list scheduler, latency model and control-word generation. */
package org.jptxas.scheduler;
