# The interface names every compiled module that speaks the kernel interface takes from
# ``state.pxd`` and exports to Python: include it, never copy it (``kernel_face.pxi`` includes it
# for the kernels; the searchers ``mcts.pyx``, ``ismcts.pyx``, ``expectimax.pyx`` and
# ``pruning.pyx`` too). The tests hold ``solver.game``'s codes and the Python searchers' limits to
# these.

from state cimport (
    KERNEL_CHANCE, KERNEL_HANDLE_NAME, KERNEL_MAX_ACTIONS, KERNEL_STATE_NAME, KERNEL_TERMINAL,
    KernelHandle, KernelVTable, handle_from_capsule, state_from_capsule,
)

KERNEL_HANDLE_CAPSULE = KERNEL_HANDLE_NAME.decode("ascii")
KERNEL_STATE_CAPSULE = KERNEL_STATE_NAME.decode("ascii")
KERNEL_CONSTANTS = {
    "KERNEL_CHANCE": KERNEL_CHANCE,
    "KERNEL_TERMINAL": KERNEL_TERMINAL,
    "KERNEL_MAX_ACTIONS": KERNEL_MAX_ACTIONS,
}
"""The ``state.pxd`` constants as compiled (tests hold ``solver.game`` to them)."""
