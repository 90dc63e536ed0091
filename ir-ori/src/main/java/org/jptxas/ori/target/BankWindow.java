package org.jptxas.ori.target;

/**
 * A generic-address window the driver publishes in constant bank 0: at {@code slot} it keeps the 64-bit generic
 * address of bank offset {@code pointee} ({@code cvta.const} and {@code cvta.param} add to it).
 */
public record BankWindow(int slot, int pointee) {}
