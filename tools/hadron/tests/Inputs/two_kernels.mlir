// Two kernels in one module: `hadron run` needs --kernel to pick one.
module attributes {hd.num_warps = 1 : i32} {
  func.func @first(%p: !hd.ptr<i32>) attributes {hd.kernel} {
    %c = arith.constant 1 : i32
    hd.store %p, %c : !hd.ptr<i32>
    return
  }
  func.func @second(%p: !hd.ptr<i32>) attributes {hd.kernel} {
    %c = arith.constant 2 : i32
    hd.store %p, %c : !hd.ptr<i32>
    return
  }
}
