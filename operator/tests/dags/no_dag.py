print("nothing to see")
