package org.jptxas.frontend.ptx.ast;

/** Every element of the PTX module model knows where it was written. */
public interface Node {
    SourcePos pos();
}
