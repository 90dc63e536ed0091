/**
 * PTX text to model: a JavaCC-generated lexer and parser ({@code src/main/javacc/PtxGrammar.jj}) behind
 * {@link org.jptxas.frontend.ptx.parse.PtxParser}. Bad input never throws: syntax errors become ptxas-worded,
 * positioned diagnostics, parsing resumes at the next statement, and nesting and operator chains are bounded.
 */
package org.jptxas.frontend.ptx.parse;
