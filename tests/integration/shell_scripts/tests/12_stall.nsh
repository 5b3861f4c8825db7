@echo -off
stall 1000
echo stalled %lasterror%
stall 2> nul
echo bad stall %lasterror%
