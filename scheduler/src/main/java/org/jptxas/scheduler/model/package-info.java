/** What the scheduler knows of an instruction and of control flow; backends and the SASS decoder adapt to it. */
package org.jptxas.scheduler.model;
