module pause
go 1.22
