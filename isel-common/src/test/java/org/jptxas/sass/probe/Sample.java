package org.jptxas.sass.probe;

import java.util.Map;

/**
 * One oracle fact: a 128-bit word at an address and nvdisasm's (normalized) text for it, with the label addresses
 * of its section.
 */
public record Sample(long lo, long hi, long address, String text, Map<String, Long> labels) {}
