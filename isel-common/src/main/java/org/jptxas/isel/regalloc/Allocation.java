package org.jptxas.isel.regalloc;

/**
 * What register allocation did to one function.
 *
 * @param registers          the register count ptxas reports ("Used N registers", EIATTR_REGCOUNT): highest general
 *                           register touched (at least R1, the stack pointer) + 1 + {@link RegisterLimits#EXTRA_COUNTED};
 *                           the function's limit when it changes its allocation (USETMAXREG)
 * @param gprs               highest general register touched + 1 (tuples count every component)
 * @param uniformRegisters   highest UR touched + 1 (0 when none)
 * @param predicates         highest P touched + 1 (0 when none)
 * @param uniformPredicates  highest UP touched + 1 (0 when none)
 * @param spillBytes         bytes of local memory added to the frame for spill slots
 * @param frameBytes         the local frame: the function's own local bytes, aligned, plus spill slots
 * @param spillStoreBytes    bytes stored by the spill stores (as ptxas -v counts "bytes spill stores")
 * @param spillLoadBytes     bytes loaded by the spill loads
 * @param usesStackPointer   whether any instruction reads R1 (spills or the function's own local memory)
 * @param copiesRemoved      register copies deleted because both sides got the same register
 * @param rounds             allocation rounds (1 + the number of spill rounds)
 */
public record Allocation(int registers, int gprs, int uniformRegisters, int predicates, int uniformPredicates,
                         long spillBytes, long frameBytes, long spillStoreBytes, long spillLoadBytes,
                         boolean usesStackPointer, int copiesRemoved, int rounds) {
}
