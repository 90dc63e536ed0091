/** Model to PTX text ({@link org.jptxas.frontend.ptx.print.PtxPrinter}): reparses to an equal model, ptxas accepts it. */
package org.jptxas.frontend.ptx.print;
