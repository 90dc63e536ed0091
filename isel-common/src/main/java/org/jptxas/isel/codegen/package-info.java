/**
 * The code-generation pipeline from Ori to a cubin, shared by the backends: per function, the Ori passes
 * ({@link org.jptxas.isel.codegen.OriPass}: optimisations, then legalisation), register allocation
 * ({@link org.jptxas.isel.codegen.RegisterAllocator}), selection to SASS text ({@link org.jptxas.isel.codegen.SassEmitter}),
 * control bits ({@link org.jptxas.isel.codegen.ControlPass}), the function layout ptxas uses
 * ({@link org.jptxas.isel.codegen.FunctionLayout}) and encoding; per module, the cubin
 * ({@link org.jptxas.isel.codegen.ModuleCodegen}). A backend supplies the stages as a
 * {@link org.jptxas.isel.codegen.CodegenPipeline}.
 */
package org.jptxas.isel.codegen;
