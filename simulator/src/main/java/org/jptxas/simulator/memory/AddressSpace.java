package org.jptxas.simulator.memory;

/** The PTX state spaces that hold data at run time. */
public enum AddressSpace {
    GLOBAL, SHARED, LOCAL, CONST, PARAM, GENERIC;

    public String ptxName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
