/** Per-SM latency and resource model: classes, pipes, read-after-write tables, scoreboard preferences. */
package org.jptxas.scheduler.latency;
