package main

func main() {
	send(undefinedName)
}

func send(int) {}
