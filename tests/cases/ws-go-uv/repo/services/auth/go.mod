module example.com/auth

go 1.21
