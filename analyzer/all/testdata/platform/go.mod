module platform

go 1.26
