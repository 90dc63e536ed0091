/**
 * The PTX module model: immutable records and sealed interfaces with a source position on every node.
 *
 * <p>{@link org.jptxas.frontend.ptx.ast.PtxModule} holds the module items in source order (header directives,
 * variables, functions, debug sections). Functions have typed parameters and a {@link org.jptxas.frontend.ptx.ast.Block}
 * of {@link org.jptxas.frontend.ptx.ast.Statement}s; an {@link org.jptxas.frontend.ptx.ast.Instruction} is an opcode,
 * its dotted modifiers in order and its {@link org.jptxas.frontend.ptx.ast.Operand}s. Immediates keep their exact
 * value and written form ({@link org.jptxas.frontend.ptx.ast.Expr.IntLit}, {@link org.jptxas.frontend.ptx.ast.Expr.FloatLit}).
 * Names are resolved by the checker ({@link org.jptxas.frontend.ptx.check.ResolvedModule}).
 * {@link org.jptxas.frontend.ptx.ast.ModelEquality} compares trees ignoring positions.
 */
package org.jptxas.frontend.ptx.ast;
