# Runs every script of \tests in name order, each after a "==== name" line, then powers
# off. The same disk contents run on ember-run and on OVMF (tests/integration/test_shell*.py).
@echo -off
for %t in \tests\*.nsh
  cd \tests
  echo ==== %t
  %t
endfor
echo ==== end
reset -s
