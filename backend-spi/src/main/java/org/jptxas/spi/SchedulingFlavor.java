package org.jptxas.spi;

/** How a target's code is scheduled, as ptxas does it per generation (the seeds' scheduler page). */
public enum SchedulingFlavor {
    /** The list scheduler over a red-black-tree ready list, with control bits per instruction (sm_70 on). */
    LIST,
    /** MercExpand: Maxwell/Pascal's expansion with a control word per three instructions (sm_50 … sm_62). */
    MERC_EXPAND
}
