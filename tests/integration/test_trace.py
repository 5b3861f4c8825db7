"""`ember-run --trace` (core/trace): programs behave the same under the tracing tables (the
conformance and variable test applications still pass every check), and each service they
call shows as one line with its name, arguments and status."""
import re
import shutil

from conftest import app, run_ember

# Boot services the conformance application calls, each of which must show in the trace.
BOOT_SERVICES = """RaiseTPL RestoreTPL AllocatePages FreePages GetMemoryMap AllocatePool FreePool
CreateEvent CreateEventEx SetTimer WaitForEvent SignalEvent CloseEvent CheckEvent
InstallProtocolInterface ReinstallProtocolInterface UninstallProtocolInterface
HandleProtocol RegisterProtocolNotify LocateHandle LocateDevicePath InstallConfigurationTable
LoadImage StartImage Exit UnloadImage ExitBootServices GetNextMonotonicCount Stall
SetWatchdogTimer ConnectController DisconnectController OpenProtocol CloseProtocol
OpenProtocolInformation ProtocolsPerHandle LocateHandleBuffer LocateProtocol
InstallMultipleProtocolInterfaces UninstallMultipleProtocolInterfaces CalculateCrc32
CopyMem SetMem""".split()
RUNTIME_SERVICES = """GetVariable GetNextVariableName SetVariable QueryVariableInfo
ResetSystem""".split()
TRACE_LINE = re.compile(r"^(BS|RT)\.(\w+)\(.*\)( -> .*)?( = \w+)?$")


def traced(stderr):
    """{service name: [lines]} of the BS./RT. lines of a trace."""
    calls = {}
    for line in stderr.splitlines():
        m = TRACE_LINE.match(line)
        if m:
            calls.setdefault(m.group(2), []).append(line)
    return calls


def test_conformance_passes_under_trace(tmp_path):
    esp = tmp_path / "esp"
    esp.mkdir()
    shutil.copy(app("conformance"), esp / "conformance.efi")
    run = run_ember("--trace", "--esp", esp, esp / "conformance.efi", timeout=300)
    out, err = run.stdout.decode(), run.stderr.decode(errors="replace")
    assert re.search(r"^conformance: \d+ passed, 0 failed", out, re.M), out[-3000:]
    assert run.returncode == 0, err[-3000:]
    calls = traced(err)
    missing = [name for name in BOOT_SERVICES if name not in calls]
    assert not missing, f"not in the trace: {missing}"
    # Statuses are named, failures included (the checks pass bad arguments on purpose).
    assert any(line.endswith("= EFI_INVALID_PARAMETER") for line in calls["AllocatePages"])
    assert any(line.endswith("= EFI_SUCCESS") for line in calls["FreePages"])


def test_variable_services_traced(tmp_path):
    run = run_ember("--trace", "--vars", tmp_path / "vars.bin", app("var-test"), timeout=300)
    out, err = run.stdout.decode(), run.stderr.decode(errors="replace")
    assert re.search(r"^var-test: \d+ passed, 0 failed", out, re.M), out[-3000:]
    calls = traced(err)
    missing = [name for name in RUNTIME_SERVICES if name not in calls]
    assert not missing, f"not in the trace: {missing}"
    # Names and GUIDs are shown readably.
    assert any("GlobalVariable" in line for line in calls["GetVariable"]), calls["GetVariable"][:5]
