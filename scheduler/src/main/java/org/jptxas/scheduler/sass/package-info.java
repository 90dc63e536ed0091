/**
 * Decoded SASS as scheduler instructions ({@code DecodedListing} through jptxas's decoder, {@code NvdisasmListing}
 * from {@code nvdisasm -hex} text) and {@code ControlAgreement}: the library behind
 * {@code jnvdisasm --recompute-control} and {@code --check-hazards}.
 */
package org.jptxas.scheduler.sass;
