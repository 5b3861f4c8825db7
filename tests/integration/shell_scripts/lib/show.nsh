@echo -off
echo show.nsh ran
