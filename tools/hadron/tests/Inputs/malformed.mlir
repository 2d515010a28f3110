// Line 3 uses an op that does not exist.
module {
  func.func @f() attributes {hd.kernel} {
    %x = hd.no_such_op : i32
    return
  }
}
