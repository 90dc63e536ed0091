/** Control-word generation for sm_70+ (stall, yield, write/read scoreboards, wait masks, reuse flags). */
package org.jptxas.scheduler.control;
