@echo -on
echo shown with its line
@echo quiet line
echo -off
echo now silent
@echo -on
echo on again
@echo -off
echo
