/** Typed, strictly loaded per-SM latency tables ({@code latency/smNN.json}) with {@code extends} overlays. */
package org.jptxas.tables.latency;
