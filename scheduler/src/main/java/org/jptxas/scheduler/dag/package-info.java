/** The dependency DAG of a scheduling region: RAW/WAR/WAW per register file, memory order per space, barriers. */
package org.jptxas.scheduler.dag;
