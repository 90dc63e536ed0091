package org.jptxas.api;

/**
 * What one compiled function uses, as {@code ptxas -v} reports it. Registers, barriers and shared memory are
 * reported for entry functions (kernels) only and are 0 for device functions.
 */
public record FunctionResources(String name, boolean entry, int registers, int barriers, long sharedMemoryBytes,
                                long stackFrameBytes, long spillStoreBytes, long spillLoadBytes) {}
