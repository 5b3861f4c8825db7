@echo -off
echo exiting with %1
exit /b %1
echo never printed
