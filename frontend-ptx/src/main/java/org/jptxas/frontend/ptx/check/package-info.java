/**
 * Semantic checks ({@link org.jptxas.frontend.ptx.check.PtxChecker}): module header, name resolution (scopes,
 * parameterized registers, block-scoped labels, forward references), duplicate definitions, state spaces, directive
 * version and target gates, and each instruction against the instruction table ({@code org.jptxas.frontend.ptx.isa}).
 * The result maps every name to its {@link org.jptxas.frontend.ptx.check.Symbol}.
 */
package org.jptxas.frontend.ptx.check;
