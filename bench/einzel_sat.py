"""One place where the draw's offline scripts hand their clauses to a SAT solver.

By default CaDiCaL as pysat has it (`pip install python-sat`). With EINZEL_SAT=kissat the
clauses go to a kissat binary instead (`pip install passagemath-kissat` ships one; or the
path in KISSAT): a second solver for the questions CaDiCaL gave no answer to, since which
solver answers a hard combinatorial question first varies from question to question. The
binary runs as a child process that dies with the script (or with the worker process a
script's time limit ends), so no solver is left running.
"""

import ctypes
import os
import shutil
import signal
import subprocess

from pysat.solvers import Solver


def kissat_binary():
    """The kissat executable: KISSAT, else the one passagemath-kissat installs, else PATH."""
    if os.environ.get("KISSAT"):
        return os.environ["KISSAT"]
    try:
        import sage_wheels  # the package passagemath-kissat puts its binary in

        for folder in sage_wheels.__path__:
            candidate = os.path.join(folder, "bin", "kissat")
            if os.access(candidate, os.X_OK):
                return candidate
    except ImportError:
        pass
    found = shutil.which("kissat")
    if found is None:
        raise SystemExit("EINZEL_SAT=kissat: no kissat binary (pip install passagemath-kissat, or set KISSAT)")
    return found


def die_with_parent():
    """In the child before exec: SIGKILL when the process that started it ends (Linux
    prctl PR_SET_PDEATHSIG), so a script's time limit ends the solver too."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGKILL)


def solve_with_kissat(clauses):
    variables = max((abs(x) for clause in clauses for x in clause), default=0)
    # DIMACS on standard input, so that no file is left behind when a time limit ends the
    # worker process (the questions here are a few MB at most).
    cnf = f"p cnf {variables} {len(clauses)}\n" + "".join(" ".join(map(str, clause)) + " 0\n" for clause in clauses)
    run = subprocess.run([kissat_binary(), "-q"], input=cnf, stdout=subprocess.PIPE, text=True, preexec_fn=die_with_parent)
    # Exit codes by the SAT competition's convention: 10 satisfiable, 20 unsatisfiable.
    if run.returncode == 20:
        return None
    if run.returncode != 10:
        raise RuntimeError(f"kissat ended with exit code {run.returncode}")
    return [int(x) for line in run.stdout.splitlines() if line.startswith("v ") for x in line.split()[1:] if x != "0"]


def solve(clauses, default="cadical195"):
    """A model of `clauses` (a list of literals), or None if they are unsatisfiable: with the
    solver EINZEL_SAT names (a pysat name, or kissat), else with `default`."""
    name = os.environ.get("EINZEL_SAT", default)
    if name == "kissat":
        return solve_with_kissat(clauses)
    with Solver(name=name, bootstrap_with=clauses) as solver:
        return solver.get_model() if solver.solve() else None


def true_literals(clauses, default="cadical195"):
    """The variables a model of `clauses` sets true (as `solve` finds it), or None."""
    model = solve(clauses, default)
    return None if model is None else {literal for literal in model if literal > 0}
