module example.com/gemapp

go 1.26
