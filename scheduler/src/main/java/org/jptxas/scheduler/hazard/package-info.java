/** The static hazard checker: finds reads before completion, WAR/WAW violations and premature waits. */
package org.jptxas.scheduler.hazard;
